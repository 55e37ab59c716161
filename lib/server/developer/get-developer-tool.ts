import { AppError } from "@/lib/errors";
import { toDeveloperTool, type TDeveloperTool } from "./developer-tool";
import { findMemberTool } from "./find-member-tool";

/** A tool of one of the person's edtechs, or null (unknown, malformed or another edtech's). */
export async function getDeveloperTool({ personId, toolId }: { personId: string; toolId: string }): Promise<TDeveloperTool | null> {
  try {
    return toDeveloperTool(await findMemberTool({ personId, toolId }));
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}
