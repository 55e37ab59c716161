import { describe, expect, it } from "vitest";
import { MAX_RETURN_URL_ENCODED } from "@/lib/server/http/safe-callback-url";
import { choosePageAfterSignIn } from "./choose-page-after-sign-in";

const on = (location: string) => ({ picker: false, location });
const picker = (callbackUrl: string) => ({ picker: true, location: `/perfil?callbackUrl=${encodeURIComponent(callbackUrl)}` });

describe("choosePageAfterSignIn: /perfil's rules, applied by /perfil and by the sign-ins", () => {
  it("sends the OAuth flow straight on, whatever the profiles: its own screen picks the profile", () => {
    for (const profileCount of [0, 1, 3]) {
      expect(choosePageAfterSignIn({ callbackUrl: "/oauth/continuar?x=1", profileCount, profileChosen: false, switching: true })).toEqual(on("/oauth/continuar?x=1"));
    }
  });

  it("sends a person with no profile on to a callback URL other than the home; to the picker's explanation for the home", () => {
    expect(choosePageAfterSignIn({ callbackUrl: "/desenvolvedor", profileCount: 0, profileChosen: false })).toEqual(on("/desenvolvedor"));
    expect(choosePageAfterSignIn({ callbackUrl: "/", profileCount: 0, profileChosen: false })).toEqual(picker("/"));
  });

  it("sends a person with one chosen profile straight on, unless switching", () => {
    expect(choosePageAfterSignIn({ callbackUrl: "/", profileCount: 1, profileChosen: true })).toEqual(on("/"));
    expect(choosePageAfterSignIn({ callbackUrl: "/a?b=c#d", profileCount: 1, profileChosen: true, switching: false })).toEqual(on("/a?b=c#d"));
    expect(choosePageAfterSignIn({ callbackUrl: "/", profileCount: 1, profileChosen: true, switching: true })).toEqual(picker("/"));
    // One profile but none chosen (a session from before it was created): the picker chooses it.
    expect(choosePageAfterSignIn({ callbackUrl: "/", profileCount: 1, profileChosen: false })).toEqual(picker("/"));
  });

  it("sends a person with several profiles to the picker, carrying the callback URL", () => {
    expect(choosePageAfterSignIn({ callbackUrl: "/ferramentas/x", profileCount: 2, profileChosen: false })).toEqual(picker("/ferramentas/x"));
    expect(choosePageAfterSignIn({ callbackUrl: "/ferramentas/x", profileCount: 2, profileChosen: true })).toEqual(picker("/ferramentas/x"));
  });

  it("never sends anyone off the hub: the callback URL goes through safeCallbackUrl", () => {
    for (const callbackUrl of ["https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)", null, undefined]) {
      expect(choosePageAfterSignIn({ callbackUrl, profileCount: 1, profileChosen: true })).toEqual(on("/"));
      expect(choosePageAfterSignIn({ callbackUrl, profileCount: 0, profileChosen: false })).toEqual(picker("/"));
    }
  });

  it("takes a callback URL too long for a redirect as the home, as a redirect to /perfil would carry it", () => {
    const long = `/${"a".repeat(MAX_RETURN_URL_ENCODED + 1)}`;
    expect(choosePageAfterSignIn({ callbackUrl: long, profileCount: 1, profileChosen: true })).toEqual(on("/"));
    expect(choosePageAfterSignIn({ callbackUrl: long, profileCount: 0, profileChosen: false })).toEqual(picker("/"));
  });
});
