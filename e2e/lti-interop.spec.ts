// The hub's LTI 1.0 launch, checked by an implementation that is not ours: the form the served
// hub signs for a placement must verify with the `oauth-1.0a` library (HMAC-SHA1 over the OAuth
// 1.0a signature base string, RFC 5849 §3.4), with the tool's own consumer key and secret.
import { createHmac } from "node:crypto";
import OAuth from "oauth-1.0a";
import { captureLaunchForm, expect, signIn, test } from "./fixtures";

const TOOLS = [
  { title: "Ferramenta de Demonstração", key: "demo-tool", secret: "demo-tool-secret" },
  { title: "Laboratório de Frações", key: "aprende-fracoes", secret: "aprende-fracoes-secret" },
];

for (const tool of TOOLS) {
  test(`the launch of ${tool.title} verifies with oauth-1.0a; a changed field does not`, async ({ page }) => {
    await signIn(page, "ana.souza@demo.hub.br");
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    const href = await page.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("link", { name: `Abrir ${tool.title}` }).getAttribute("href");
    const form = await captureLaunchForm(page.request, href!);
    const { action } = form;
    const fields = Object.fromEntries(form.fields);
    expect(fields.oauth_consumer_key).toBe(tool.key);
    expect(fields.oauth_signature_method).toBe("HMAC-SHA1");

    const oauth = new OAuth({
      consumer: { key: tool.key, secret: tool.secret },
      signature_method: "HMAC-SHA1",
      hash_function: (base, key) => createHmac("sha1", key).update(base).digest("base64"),
    });
    const { oauth_signature: signature, ...signed } = fields;
    const oauthData = Object.fromEntries(Object.entries(signed).filter(([name]) => name.startsWith("oauth_"))) as unknown as OAuth.Authorization;
    const data = Object.fromEntries(Object.entries(signed).filter(([name]) => !name.startsWith("oauth_")));
    expect(oauth.getSignature({ url: action, method: "POST", data }, "", oauthData)).toBe(signature);
    // The library is really checking: one changed parameter gives another signature.
    expect(oauth.getSignature({ url: action, method: "POST", data: { ...data, roles: "Administrator" } }, "", oauthData)).not.toBe(signature);
  });
}
