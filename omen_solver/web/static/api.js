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
  return reply(await send(path, body));
}

function send(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

// A search asked for while the server runs as many as it allows (429): asked again a little
// later, a few times, rather than refused at once (a page moving on leaves its last search
// running for a moment).
export async function postWhenFree(path, body, { attempts = 30, wait = 400 } = {}) {
  for (let attempt = 1; ; attempt++) {
    const response = await send(path, body);
    if (response.status !== 429 || attempt >= attempts) return reply(response);
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
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
