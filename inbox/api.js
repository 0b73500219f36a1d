// The admin API (docs/openapi.json), the only thing the inbox talks to.

const base = "/emulator/v1";

/** An error answer, with Google's message. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function call(method, path, body, query) {
  const url = new URL(base + path, location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  }
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

/** Paths with their segments escaped. */
export function path(strings, ...values) {
  return strings.reduce((out, part, index) => out + part + (index < values.length ? encodeURIComponent(values[index]) : ""), "");
}

export const api = {
  get: (route, query) => call("GET", route, undefined, query),
  post: (route, body) => call("POST", route, body ?? {}),
  patch: (route, body) => call("PATCH", route, body),
  delete: (route) => call("DELETE", route),
  /** The URL of an API path, for links and event streams. */
  url: (route) => base + route,
};
