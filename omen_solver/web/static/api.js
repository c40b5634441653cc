// The JSON API under /api/ (docs/web.md). Every error comes back as {"error": "..."}.

export class ApiError extends Error {}

async function reply(response) {
  let data = null;
  try {
    data = await response.json();
  } catch (problem) {
    throw new ApiError(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new ApiError(data && data.error ? data.error : `HTTP ${response.status}`);
  return data;
}

export async function get(path) {
  return reply(await fetch(path, { headers: { Accept: "application/json" } }));
}

export async function post(path, body) {
  return reply(await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  }));
}

export async function del(path) {
  return reply(await fetch(path, { method: "DELETE" }));
}

// Short links: the position's text and the moves, deflated and base64url-encoded.
function toBase64Url(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const plain = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const response = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await response.arrayBuffer());
}

export async function encodeLink(payload) {
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  if (typeof CompressionStream === "function") {
    return "z" + toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")));
  }
  return "j" + toBase64Url(bytes);
}

export async function decodeLink(code) {
  const kind = code[0];
  let bytes = fromBase64Url(code.slice(1));
  if (kind === "z") bytes = await pipe(bytes, new DecompressionStream("deflate-raw"));
  else if (kind !== "j") throw new ApiError("this link is not one of the board's links");
  return JSON.parse(new TextDecoder().decode(bytes));
}
