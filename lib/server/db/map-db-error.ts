import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

// PostgreSQL SQLSTATEs we turn into readable 4xx. The PGlite adapter surfaces them raw on a
// DriverAdapterError's `cause`; the pg adapter has Prisma map them to P-codes. Both are handled.
const SQLSTATE_TO_PRISMA: Record<string, string> = { "23505": "P2002", "23503": "P2003" };

function prismaCode(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code;
  if (error instanceof Error && error.name === "DriverAdapterError") {
    const cause = error.cause as { kind?: string; code?: string } | undefined;
    if (cause?.kind === "postgres" && cause.code) return SQLSTATE_TO_PRISMA[cause.code];
  }
  return undefined;
}

/** Known constraint failures become 409/404 with a readable message; anything else is rethrown. */
export function mapDbError(error: unknown, what: string): never {
  const code = prismaCode(error);
  if (code === "P2002") throw new AppError("conflict", `${what} já existe.`);
  if (code === "P2003") throw new AppError("conflict", `${what} ainda está em uso.`);
  if (code === "P2025") throw new AppError("not_found", `${what} não encontrado.`);
  throw error;
}
