import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

/** A page's main lookup: a row that does not exist, or lies outside the manager's reach, is a 404. */
export async function notFoundOnMissing<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}
