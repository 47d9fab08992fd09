/**
 * Bodies that are already in memory, beside the Web Request/Response that
 * carries them. The production server's direct path (node-bridge.ts) reads a
 * request body from the socket whole; building a Web ReadableStream for it
 * only for readText (api.ts) to read it back cost about a tenth of a gate
 * lifecycle's CPU (a profile of `npm run bench gate`). So the bridge hands
 * handlers a Request without a body and leaves the bytes here, and json()
 * leaves its text here for the bridge to write. Under `next start` nothing is
 * left here and both sides read the streams as usual.
 */
const requestBodies = new WeakMap<Request, Buffer>();
const responseTexts = new WeakMap<Response, string>();

/** The bridge's Request for a body it has read: readText takes the bytes from here. */
export function requestWithBody(url: string, init: { method: string; headers: Headers }, body: Buffer | null): Request {
  const request = new Request(url, init);
  if (body !== null) requestBodies.set(request, body);
  return request;
}

/** The bytes the bridge read for this request, once (a body can be read once, as a stream can). */
export function takeRequestBody(request: Request): Buffer | undefined {
  const body = requestBodies.get(request);
  if (body !== undefined) requestBodies.delete(request);
  return body;
}

/** Notes the text a Response was made with, so the bridge can write it without reading the stream. */
export function withText(response: Response, text: string): Response {
  responseTexts.set(response, text);
  return response;
}

export function responseText(response: Response): string | undefined {
  return responseTexts.get(response);
}
