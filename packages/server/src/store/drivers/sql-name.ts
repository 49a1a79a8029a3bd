const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Refuses a column or key name that is not a plain identifier: such names are spliced into SQL text. */
export function assertSqlName(name: string): string {
  if (!NAME.test(name)) throw new Error(`not a plain SQL name: ${JSON.stringify(name)}`);
  return name;
}
