/** Minimal JSON-over-HTTP for the CLI; errors carry the server's error code and message. */
export async function apiRequest<T>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  apiKey: string | undefined = process.env.SOL_API_KEY,
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  let res: Response;
  try {
    res = await fetch(new URL(path, baseUrl), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (cause) {
    throw new Error(`cannot reach ${baseUrl} (${(cause as Error).message}); is the server running?`);
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new Error(`${res.status} ${err?.code ?? "error"}: ${err?.message ?? text}`);
  }
  return json as T;
}
