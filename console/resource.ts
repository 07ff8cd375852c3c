/**
 * One GET as page state: loading, error or ready. A body fetched before in this tab shows at once and
 * is asked again with If-None-Match (a 304 is free); a newer request always wins over a late one.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, keptBody } from "./api.ts";

export type Resource<T> =
  | { state: "loading"; data?: undefined; error?: undefined }
  | { state: "error"; error: ApiError; data?: T | undefined }
  | { state: "ready"; data: T; error?: undefined };

/** @example const prices = useResource<Envelope<Price[]>>("/v1/prices") */
export function useResource<T>(path: string | null, refresh = 0): Resource<T> & { reload(): void } {
  const [state, setState] = useState<Resource<T>>(() => initial<T>(path));
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const ctrl = new AbortController();
    const kept = keptBody<T>(path);
    setState(kept === undefined ? { state: "loading" } : { state: "ready", data: kept });
    api<T>(path, { signal: ctrl.signal }).then(
      (data) => !ctrl.signal.aborted && setState({ state: "ready", data }),
      (error) => {
        if (ctrl.signal.aborted) return;
        setState({ state: "error", error: error instanceof ApiError ? error : new ApiError(String((error as Error).message ?? error), 0), data: kept });
      },
    );
    return () => ctrl.abort();
  }, [path, tick, refresh]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

function initial<T>(path: string | null): Resource<T> {
  const kept = path === null ? undefined : keptBody<T>(path);
  return kept === undefined ? { state: "loading" } : { state: "ready", data: kept };
}
