// The short fuzz run of `npm test`: malformed requests to every route handler and page of the
// served hub (test/fuzz), anonymous and signed in. None may answer 5xx, reset the connection or
// take longer than 5 s, and none may change the school data. The long run is `npm run fuzz`
// (docs/security.md has its figures).
import { expect, test } from "@playwright/test";
import { routesOf } from "../test/fuzz/cases";
import { demoFuzzContext, reportTable, runFuzz } from "../test/fuzz/run-fuzz";

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1_500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

test.setTimeout(300_000);

test(`${REQUESTS} malformed requests: no 5xx, no reset, none slower than 5 s, no change to the school data`, async ({ baseURL }) => {
  const base = baseURL!;
  const { context, readSummaries } = await demoFuzzContext(base);
  expect(context.ids.length).toBeGreaterThan(0);
  const before = await readSummaries();

  const report = await runFuzz({ base, routes: routesOf(), context, requests: REQUESTS, seed: SEED, concurrency: 2 });
  test.info().annotations.push({ type: "fuzz", description: `seed ${SEED}, ${report.requests} requests in ${report.ms} ms` });
  const show = (problems: typeof report.serverErrors) => JSON.stringify(problems.slice(0, 5), null, 1);
  expect(report.serverErrors, `5xx answers (seed ${SEED}):\n${show(report.serverErrors)}\n${reportTable(report)}`).toEqual([]);
  expect(report.resets, `connection errors (seed ${SEED}):\n${show(report.resets)}`).toEqual([]);
  expect(report.slow, `answers slower than 5 s (seed ${SEED}):\n${show(report.slow)}`).toEqual([]);
  expect(await readSummaries(), "the school data did not change").toEqual(before);
});
