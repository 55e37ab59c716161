// A forced internal error, for the test that shows what an operator sees of a 500 (one log line
// with the request id and the stack; a body with only `message` and `requestId`). It exists only
// when the server was started with HUB_TEST_FAULTS=1; otherwise it is an ordinary 404.
import { AppError } from "@/lib/errors";
import { toResponse } from "@/lib/server/http/error-response";
import { env } from "@/lib/env";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

export function GET(): Response {
  if (env().HUB_TEST_FAULTS !== "1") return toResponse(new AppError("not_found", "Não encontrado."));
  try {
    throw new TypeError("forced internal error (HUB_TEST_FAULTS=1)");
  } catch (error) {
    return toResponse(error);
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
