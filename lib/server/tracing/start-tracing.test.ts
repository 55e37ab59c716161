// Traces are off unless the standard OTEL_* variables ask for them (and then the SDK is loaded).
import { describe, expect, it } from "vitest";
import { startTracing, tracingRequested } from "./start-tracing.mjs";

describe("tracingRequested", () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }, true],
    [{ OTEL_TRACES_EXPORTER: "otlp" }, true],
    [{ OTEL_TRACES_EXPORTER: "console" }, true],
    [{ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, false],
    [{ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: " " }, false],
  ])("%j → %s", (env, expected) => expect(tracingRequested(env)).toBe(expected));

  it("starts nothing when not asked", async () => {
    expect(await startTracing({})).toBe(false);
  });
});
