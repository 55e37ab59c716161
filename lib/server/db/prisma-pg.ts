import { PrismaPg } from "@prisma/adapter-pg";

/**
 * PrismaPg whose interactive transactions always give their connection back to the pool.
 *
 * Prisma 6.19 ends an interactive transaction by sending COMMIT or ROLLBACK as a query, and only
 * when that query succeeds does it call the adapter's commit()/rollback(), which release the pg
 * connection. When the connection died inside the transaction (a database restart, a network
 * cut), the ROLLBACK fails and the connection is never released: the pool loses a slot for good,
 * and after `max` such transactions every request waits for a connection that never comes — the
 * hub would not recover by itself. Reproduced in unavailable.test.ts.
 */
export class ReleasingPrismaPg extends PrismaPg {
  override async connect(): ReturnType<PrismaPg["connect"]> {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = await startTransaction(isolationLevel);
      const executeRaw = tx.executeRaw.bind(tx);
      tx.executeRaw = async (query) => {
        try {
          return await executeRaw(query);
        } catch (error) {
          // The transaction is over either way; rollback() only releases the connection, and the
          // pool drops it if it is dead.
          if (query.sql === "COMMIT" || query.sql === "ROLLBACK") await tx.rollback();
          throw error;
        }
      };
      return tx;
    };
    return adapter;
  }
}
