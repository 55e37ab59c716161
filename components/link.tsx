import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The hub's link to its own pages: next/link's client-side navigation, never prefetched (docs/
 * decisions/047-links-without-prefetch.md). A prefetch is a render on the server for a page the
 * person may never open: Next prefetches every link that scrolls into view, so a student's gallery
 * cost about eight renders of the pages it links to beside its own. A click still fetches only the
 * next page's payload, not a whole document. Lint refuses next/link anywhere else.
 */
export default function Link(props: Omit<ComponentProps<typeof NextLink>, "prefetch">) {
  return <NextLink {...props} prefetch={false} />;
}
