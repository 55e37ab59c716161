// RFC 9110 §15.5.6: a 405 MUST carry `Allow`. Every route handler of the build (from its own
// routes manifest, so a new route is covered without anyone listing it) gets every method; each
// 405 must name the methods the route does support, and none of those may answer 405 itself.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const SOME_ID = "00000000-0000-4000-8000-000000000000";

function routeHandlers(): string[] {
  const distDir = path.resolve(process.cwd(), process.env.HUB_NEXT_DIST_DIR || ".next");
  const manifest = JSON.parse(readFileSync(path.join(distDir, "app-path-routes-manifest.json"), "utf8")) as Record<string, string>;
  return Object.entries(manifest)
    .filter(([file, route]) => file.endsWith("/route") && route !== "/test-fault")
    .map(([, route]) => route.replace(/\[\.\.\.[^\]]+\]/g, "session").replace(/\[[^\]]+\]/g, SOME_ID))
    .sort();
}

const routes = routeHandlers();

test("the build has route handlers to check", () => {
  expect(routes.length).toBeGreaterThanOrEqual(15);
});

for (const route of routes) {
  test(`${route}: every 405 says which methods are allowed`, async ({ request, baseURL }) => {
    const answers = new Map<string, { status: number; allow: string | undefined }>();
    for (const method of METHODS) {
      const response = await request.fetch(route, { method, headers: { origin: baseURL! }, maxRedirects: 0, failOnStatusCode: false });
      answers.set(method, { status: response.status(), allow: response.headers()["allow"] });
    }
    const refused = [...answers].filter(([, a]) => a.status === 405);
    expect(refused.length, `${route} refuses some method`).toBeGreaterThan(0);
    for (const [method, answer] of refused) {
      expect(answer.allow, `${method} ${route} → 405 without Allow`).toBeTruthy();
      const allowed = answer.allow!.split(",").map((m) => m.trim());
      expect(allowed).not.toContain(method);
      for (const other of allowed) expect(answers.get(other)?.status, `${other} ${route} is in Allow but answers 405`).not.toBe(405);
    }
    const options = answers.get("OPTIONS")!;
    expect(options.allow, `OPTIONS ${route} names the methods`).toBe(refused[0]![1].allow);
  });
}
