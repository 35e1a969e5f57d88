import { useEffect, useId, useState } from "react";

/** The dark modules of a QR code as one SVG path, one unit a module. */
interface QrSymbol {
  size: number;
  path: string;
}

// The quiet zone the QR standard asks for around the symbol, in modules, so phones can find it on paper.
const MARGIN = 4;

/**
 * A QR code of `text` drawn as SVG, crisp in print at any size. The encoder (the `qrcode` package) loads with the
 * first code drawn, so only the pages that show one ever download it.
 */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const titleId = useId();
  const [symbol, setSymbol] = useState<QrSymbol>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    import("qrcode")
      .then(({ create }) => {
        const { modules } = create(text, { errorCorrectionLevel: "M" });
        let path = "";
        for (let row = 0; row < modules.size; row++) {
          for (let column = 0; column < modules.size; column++) {
            if (modules.get(row, column)) path += `M${column + MARGIN} ${row + MARGIN}h1v1h-1z`;
          }
        }
        if (current) setSymbol({ size: modules.size + 2 * MARGIN, path });
      })
      .catch(() => {
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [text]);

  if (failed) return <p>The QR code could not be drawn; share the link instead.</p>;
  if (!symbol) return <p role="status">Drawing the QR code...</p>;
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      viewBox={`0 0 ${symbol.size} ${symbol.size}`}
      shapeRendering="crispEdges"
      className={className}
    >
      <title id={titleId}>{label}</title>
      <rect width={symbol.size} height={symbol.size} fill="#ffffff" />
      <path d={symbol.path} fill="#000000" />
    </svg>
  );
}
