// One person's morning over HTTP, as a browser and the partner application make the requests (no
// browser: fetch, with the person's own cookie), each request timed and its answer checked:
//
//   password student: sign-in page → password sign-in (one profile: straight on to the gallery) → gallery
//   card student:     card sign-in (the QR code's address) → gallery
//   teacher:          sign-in page → password sign-in → picker page → picker choice → gallery
//   then everyone:    LTI 1.0 launch → LTI 1.3 login initiation → LTI 1.3 authorize (the reference
//                     tool's authentication request, its own state and nonce) → OAuth authorize
//                     (the demo application's request, PKCE) → token exchange → user info
//
// The tool's own pages and the partner application's callback are not the hub's work and are not
// requested; the partner's token request and user info call are (the bench is the partner).
import { authenticationBody, formFields } from "../lti13/tool";
import { mintHubCodes } from "../lib/hub-session";
import { MORNING_PASSWORD, type TMorningPerson } from "./setup";

export const STEPS = [
  "sign-in page", "password sign-in", "card sign-in", "picker page", "picker choice", "gallery",
  "LTI 1.0 launch", "LTI 1.3 login initiation", "LTI 1.3 authorize", "OAuth authorize", "token exchange", "user info",
] as const;
export type TStep = (typeof STEPS)[number];

/** Where each step is sent: the hub, or each step's floor or peer. */
export interface TPathTarget {
  name: string;
  /** The sign-in pages, picker, gallery, LTI 1.3 launch and OAuth authorization. */
  pages: string;
  /** The LTI 1.0 launch page's server. */
  lti10: string;
  /** The token request for a code the authorization step returned (a peer may use its own code instead). */
  token(code: string): { url: string; body: string };
  /** The user info request for the token the exchange returned (a peer may use its own token). */
  userInfo(accessToken: string): { url: string; authorization: string };
}

/** Times one request of a step (and, one at a time, the servers' CPU around it). */
export type TTimer = <T>(step: TStep, run: () => Promise<T>) => Promise<T>;

export class StepError extends Error {
  constructor(readonly step: TStep, message: string) {
    super(`${step}: ${message}`);
  }
}

const FORM = "application/x-www-form-urlencoded";

/** A person's cookies at one server, from Set-Cookie (no paths or expiry: the hub sets its session at /). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

interface TAnswer {
  status: number;
  location: string;
  text: string;
}

async function request(jar: Jar, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<TAnswer> {
  const res = await fetch(url, { method: init.method ?? "GET", redirect: "manual", headers: { cookie: jar.header(), ...init.headers }, body: init.body });
  const text = await res.text();
  jar.take(res);
  return { status: res.status, location: res.headers.get("location") ?? "", text };
}

function expect(step: TStep, answer: TAnswer, status: number, check?: (a: TAnswer) => boolean): TAnswer {
  if (answer.status !== status || (check && !check(answer))) {
    throw new StepError(step, `answered ${answer.status} (${answer.location || answer.text.slice(0, 200).replace(/\s+/g, " ")}), expected ${status}`);
  }
  return answer;
}

let nonces = 0;
const run = Math.random().toString(36).slice(2, 8);

/**
 * One person's whole path against `target`. `hubBase` is the hub the demo was seeded for (the
 * Origin of its forms, the demo application's redirect URI, the LTI 1.3 tool's redirect URI).
 */
export async function morningPath(person: TMorningPerson, placements: { lti10: string; lti13: string }, target: TPathTarget, hubBase: string, time: TTimer): Promise<void> {
  const jar = new Jar();
  const pages = target.pages;
  const origin = { origin: hubBase, "content-type": FORM };
  if (person.kind === "card") {
    await time("card sign-in", async () => expect("card sign-in", await request(jar, `${pages}/cracha/${person.cardToken}`), 303, (a) => a.location.endsWith("/")));
  } else {
    await time("sign-in page", async () => expect("sign-in page", await request(jar, `${pages}/login`), 200, (a) => a.text.includes("Entrar")));
    const body = new URLSearchParams({ login: person.email, password: MORNING_PASSWORD, callbackUrl: "/" }).toString();
    // One profile: chosen at sign-in, which sends the student straight to the gallery (no /perfil
    // hop, issue #45); a teacher's two profiles: the picker.
    const next = person.kind === "teacher" ? "/perfil?callbackUrl=%2F" : "/";
    await time("password sign-in", async () => expect("password sign-in", await request(jar, `${pages}/entrar`, { method: "POST", headers: origin, body }), 303, (a) => a.location === next));
    if (person.kind === "teacher") {
      await time("picker page", async () => expect("picker page", await request(jar, `${pages}/perfil?callbackUrl=%2F`), 200, (a) => a.text.includes(person.profileId)));
      const choice = new URLSearchParams({ profileId: person.profileId, callbackUrl: "/", returnTo: "/perfil?callbackUrl=%2F&trocar=1" }).toString();
      await time("picker choice", async () => expect("picker choice", await request(jar, `${pages}/perfil/escolher`, { method: "POST", headers: origin, body: choice }), 303, (a) => a.location.endsWith("/")));
    }
  }
  const gallery = await time("gallery", async () => expect("gallery", await request(jar, `${pages}/`), 200, (a) => a.text.includes(`/launch/${placements.lti10}`)));
  await time("LTI 1.0 launch", async () => expect("LTI 1.0 launch", await request(jar, `${target.lti10}/launch/${placements.lti10}`), 200, (a) => a.text.includes("oauth_signature")));
  const initiation = await time("LTI 1.3 login initiation", async () =>
    expect("LTI 1.3 login initiation", await request(jar, `${pages}/launch/${placements.lti13}`), 200, (a) => a.text.includes("lti_message_hint")));
  const authentication = authenticationBody(hubBase, formFields(initiation.text), `s${nonces}`, `${run}-${nonces++}`);
  await time("LTI 1.3 authorize", async () =>
    expect("LTI 1.3 authorize", await request(jar, `${pages}/lti13/authorize`, { method: "POST", headers: { "content-type": FORM }, body: authentication }), 200, (a) => a.text.includes('name="id_token"')));
  // The demo application's authorization request, as mintHubCodes sends it (PKCE with BENCH_VERIFIER).
  // A teacher, who has two profiles, opens the application from its card in the gallery, whose
  // address names the profile (login_hint: the application's id for it), and the application passes
  // it on; without it the hub would ask which profile. A student has one profile: the application's
  // own sign-in button.
  const loginHint = person.kind === "teacher" ? /login_hint=([0-9a-f-]{36})/.exec(gallery.text)?.[1] : undefined;
  if (person.kind === "teacher" && !loginHint) throw new StepError("gallery", "no application card with a login_hint");
  const [code] = await time("OAuth authorize", () =>
    mintHubCodes(hubBase, jar.header(), 1, pages, loginHint ? { login_hint: loginHint } : {}).catch((error: unknown) => {
      throw new StepError("OAuth authorize", error instanceof Error ? error.message : String(error));
    }));
  await partnerSteps(target, code!, time);
}

/**
 * The partner application's own requests after its callback got `code`: the token exchange, then
 * user info with the access token. Its requests carry none of the person's cookies.
 */
export async function partnerSteps(target: Pick<TPathTarget, "token" | "userInfo">, code: string, time: TTimer): Promise<void> {
  const partner = new Jar();
  const token = target.token(code);
  const tokens = await time("token exchange", async () =>
    JSON.parse(expect("token exchange", await request(partner, token.url, { method: "POST", headers: { "content-type": FORM }, body: token.body }), 200).text) as { access_token: string });
  const info = target.userInfo(tokens.access_token);
  await time("user info", async () => expect("user info", await request(partner, info.url, { headers: { authorization: info.authorization } }), 200));
}
