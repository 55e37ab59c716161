import type { ReactNode } from "react";

/**
 * Preformatted text (JSON, a command) in a box that may scroll. A box that scrolls must be
 * reachable by keyboard (axe `scrollable-region-focusable`), and what is focusable needs a name:
 * so every such block is a focusable, labelled group.
 */
export function CodeBlock({ label, className, testId, children }: { label: string; className: string; testId?: string; children: ReactNode }) {
  return (
    <pre tabIndex={0} role="group" aria-label={label} data-testid={testId} className={className}>
      {children}
    </pre>
  );
}
