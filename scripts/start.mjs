// `npm start`: install what is missing, generate, migrate and seed, build if needed, serve.
import { spawn } from "node:child_process";
import { baseUrlFrom } from "../lib/base-url.mjs";
import { ensureBuilt, ensureGenerated, ensureInstalled, ensurePrepared, root } from "./lib/steps.mjs";
import { serverSpawn } from "./lib/server-command.mjs";

const port = Number(process.env.PORT ?? 3000);
const baseUrl = baseUrlFrom({ HUB_BASE_URL: process.env.HUB_BASE_URL, PORT: port });
process.env.NEXT_TELEMETRY_DISABLED = "1";

ensureInstalled();
ensureGenerated();
ensurePrepared({ HUB_BASE_URL: baseUrl, PORT: String(port) });
ensureBuilt();

console.log(`▸ Starting the hub on ${baseUrl} …`);
// server.mjs: Next's request handler behind the hub's own compression (docs/decisions/007).
const server = spawn(...serverSpawn({ ...process.env, NODE_ENV: "production", PORT: String(port), HUB_BASE_URL: baseUrl }, { cwd: root, stdio: ["ignore", "pipe", "inherit"] }));
server.stdout.on("data", (chunk) => process.stdout.write(chunk));
// A process manager signals this process (or npm, which passes the signal on): pass it to the
// server, which drains and exits 0, and exit with the server's code. A signal that arrived while
// the steps above ran is handled here too (node runs its handler once they are done).
/** @type {NodeJS.Signals | undefined} */
let forwarded;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    forwarded = signal;
    server.kill(signal);
  });
}
// Killed by the signal we forwarded (before server.mjs installed its handler): a clean stop too.
server.on("exit", (code, signal) => process.exit(code ?? (signal && signal === forwarded ? 0 : 1)));

async function announce() {
  for (let i = 0; i < 120; i++) {
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) {
        console.log(`
  ┌──────────────────────────────────────────────────────────────┐
    Hub Educacional is running: ${baseUrl}

    Sign in with (password: hub-demo)
      ana.souza@demo.hub.br   teacher at school 1 + guardian at school 2
      aluno@demo.hub.br       student
      gestor@demo.hub.br      network manager   → ${baseUrl}/gestao
      dev@edtech.demo         edtech developer  → ${baseUrl}/desenvolvedor

    OAuth demo app: client_id demo-app / secret demo-secret
    Data API key:   demo-api-key
  └──────────────────────────────────────────────────────────────┘
`);
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  console.error("The hub did not answer /healthz within 60 s; see the log above.");
}
announce();
