import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { listDeveloperEdtechs, type TDeveloperEdtech } from "./list-developer-edtechs";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export interface TDeveloper {
  personId: string;
  name: string;
  edtechs: TDeveloperEdtech[];
}

/**
 * For /desenvolvedor pages: the signed-in person and their edtechs. Signed out → sign-in page,
 * coming back here afterwards; in no edtech → the "acesso restrito" page. A school profile is not
 * needed: developers are people of an edtech, not of a school.
 */
export async function requireDeveloper(returnTo: string): Promise<TDeveloper> {
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", returnTo));
  const edtechs = await listDeveloperEdtechs({ personId: user.personId });
  if (edtechs.length === 0) redirect("/desenvolvedor/sem-acesso");
  return { personId: user.personId, name: user.name, edtechs };
}
