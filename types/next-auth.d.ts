import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    personId: string;
    /** The chosen profile (user_id everywhere); null until the person picks one. */
    profileId: string | null;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    profileId?: string | null;
    /** How the person proved who they are (the usage counts); absent in sessions from before issue #42, all password ones. */
    method?: import("@/lib/server/usage/log-sign-in").TSignInMethod;
  }
}
