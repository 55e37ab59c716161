/**
 * A tool's logo from /assets/{id}, or its initial when it has none. A plain <img>: logos are
 * small SVG/PNG files served with immutable caching, and next/image refuses SVG by default.
 */
export function ToolLogo({ src, title, size = "md" }: { src: string | null; title: string; size?: "md" | "lg" }) {
  const box = size === "lg" ? "size-20 rounded-2xl text-3xl" : "size-12 rounded-xl text-xl";
  if (!src) {
    return (
      <span aria-hidden className={`grid shrink-0 place-items-center bg-brand-100 font-bold text-brand-700 ${box}`}>
        {title.trim().charAt(0).toUpperCase() || "?"}
      </span>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element -- see above
  return <img src={src} alt="" width={size === "lg" ? 80 : 48} height={size === "lg" ? 80 : 48} className={`shrink-0 object-contain ${box}`} />;
}
