// Test helper (no production code imports it): the OneRosterError a call throws, asserted to be
// the 400 with the code minor the binding names for it, and nothing else.
import { expect } from "vitest";
import { OneRosterError, type TCodeMinor } from "./status";

export function refusedWith(codeMinor: TCodeMinor, run: () => unknown): OneRosterError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OneRosterError);
    const e = error as OneRosterError;
    expect([e.codeMinor, e.httpStatus]).toEqual([codeMinor, 400]);
    return e;
  }
  throw new Error("accepted where a refusal was expected");
}
