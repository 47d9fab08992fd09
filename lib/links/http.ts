/** The parts of the links API that several routes and pages share. */
import type { Link } from "./repo";
import { SHORT_LINK_PATH } from "./rules";

/** The origin the visitor used (a proxy's X-Forwarded-* when present), for short URLs. */
export function originOf(headers: Headers, fallbackUrl: string): string {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host) return new URL(fallbackUrl).origin;
  const proto = headers.get("x-forwarded-proto") ?? new URL(fallbackUrl).protocol.replace(":", "");
  return `${proto}://${host}`;
}

export function hostOf(headers: Headers): string[] {
  return [headers.get("x-forwarded-host"), headers.get("host")].filter((h): h is string => !!h);
}

export const shortUrlOf = (origin: string, code: string) => `${origin}${SHORT_LINK_PATH}${encodeURIComponent(code)}`;

/** A link as the API shows it: the row, its short URL, and where its QR codes are. */
export function linkView(link: Link, origin: string) {
  const qrBase = `${origin}/api/v1/links/${encodeURIComponent(link.code)}/qr`;
  return { ...link, shortUrl: shortUrlOf(origin, link.code), qr: { svgUrl: `${qrBase}?format=svg`, pngUrl: `${qrBase}?format=png` } };
}
