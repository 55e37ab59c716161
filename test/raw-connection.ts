// A raw TCP connection to a local HTTP server, for tests that must see exactly when the server
// closes a connection and which bytes (headers included) it sent.
import { connect, type Socket } from "node:net";

export type TRawConnection = { socket: Socket; received: () => string; closed: Promise<void> };

export function openRawConnection(port: number): Promise<TRawConnection> {
  return new Promise((resolve, reject) => {
    let data = "";
    const socket = connect(port, "127.0.0.1");
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", reject);
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    socket.on("connect", () => resolve({ socket, received: () => data, closed }));
  });
}
