import { create } from "qrcode";

/** A QR code as one SVG path: `size` modules square (quiet zone not included), `d` drawing every dark module as a 1×1 square. */
export interface QrPath {
  /** Modules per side. */
  size: number;
  /** SVG path data in module units (`M x y h1 v1 h-1 z` per dark module). */
  d: string;
}

/**
 * Encodes `text` (a join URL) as a QR code with the qrcode library (error correction M) and
 * returns it as SVG path data, so the projector draws it inline: no image request, no network.
 * Throws qrcode's own error when the text is too long for any QR version (over ~2 kB).
 */
export function qrPath(text: string): QrPath {
  const { modules } = create(text, { errorCorrectionLevel: "M" });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) parts.push(`M${col} ${row}h1v1h-1z`);
    }
  }
  return { size: modules.size, d: parts.join("") };
}
