/** QR codes of short links (the `qrcode` package): SVG for pages, PNG for print. */
import QRCode from "qrcode";

const OPTIONS = { errorCorrectionLevel: "M", margin: 2 } as const;
export const QR_PNG_WIDTH_PX = 512;

export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...OPTIONS, type: "svg" });
}

export function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { ...OPTIONS, type: "png", width: QR_PNG_WIDTH_PX });
}
