import { authorizationGetHandler } from "@/lib/server/oauth/authorization-http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Where the authorization screen resumes after sign-in or the profile picker: the same request,
 * completed for the profile the person just chose (decide-authorization.ts, step "continue").
 */
export const GET = authorizationGetHandler("continue");
