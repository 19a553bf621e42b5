import QRCode from "qrcode";

/** A text (an otpauth URI, a deposit address) as an SVG QR code, drawn on the server so it shows without JavaScript. */
export function qrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M", color: { dark: "#000000", light: "#ffffff" } });
}
