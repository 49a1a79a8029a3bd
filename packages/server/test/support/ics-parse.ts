/** One parsed iCalendar component: its properties (name -> raw values) and child components. */
export interface IcsComponent {
  readonly name: string;
  readonly props: Map<string, string[]>;
  readonly children: IcsComponent[];
}

/** Undoes TEXT escaping (RFC 5545 §3.3.11). */
export function unescapeIcsText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, ch: string) => (ch === "n" || ch === "N" ? "\n" : ch));
}

/**
 * A strict little iCalendar reader for tests: every line must end in CRLF, folded lines are joined,
 * BEGIN/END must nest, and property names keep their parameters (`DTSTART;VALUE=DATE`).
 */
export function parseIcs(text: string): IcsComponent {
  if (!text.endsWith("\r\n")) throw new Error("the file does not end with CRLF");
  if (/[^\r]\n|\r(?!\n)/.test(text)) throw new Error("a line ends without CRLF");
  const physical = text.slice(0, -2).split("\r\n");
  for (const line of physical) {
    if (Buffer.byteLength(line, "utf8") > 75) throw new Error(`line longer than 75 octets: ${line}`);
  }
  const logical: string[] = [];
  for (const line of physical) {
    if (line.startsWith(" ") || line.startsWith("\t")) {
      if (logical.length === 0) throw new Error("continuation before any line");
      logical[logical.length - 1] += line.slice(1);
    } else logical.push(line);
  }
  const stack: IcsComponent[] = [];
  let root: IcsComponent | null = null;
  for (const line of logical) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`not a content line: ${line}`);
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (name === "BEGIN") {
      const component: IcsComponent = { name: value, props: new Map(), children: [] };
      stack.at(-1)?.children.push(component);
      if (stack.length === 0) {
        if (root !== null) throw new Error("two top-level components");
        root = component;
      }
      stack.push(component);
    } else if (name === "END") {
      const open = stack.pop();
      if (open?.name !== value) throw new Error(`END:${value} does not close ${open?.name}`);
    } else {
      const current = stack.at(-1);
      if (current === undefined) throw new Error(`property outside a component: ${line}`);
      current.props.set(name, [...(current.props.get(name) ?? []), value]);
    }
  }
  if (stack.length > 0 || root === null) throw new Error("unclosed component");
  return root;
}
