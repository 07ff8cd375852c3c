/**
 * Path routes under /console/ with the History API: every page has its own URL (bookmark it, share it;
 * the server answers the page for any path under /console/). Filters, sorts and what-if prices live
 * in the query string; the key never does.
 */
import { signal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

export const BASE = "/console/";

export interface Place {
  /** Path segments after /console/, decoded. */
  parts: string[];
  query: URLSearchParams;
}

function read(): Place {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : "";
  const parts = rest.split("/").filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  return { parts, query: new URLSearchParams(location.search) };
}

export const place = signal<Place>(read());
/** A page's own heading once its data names it (a formula's name); null: the route's title. */
export const heading = signal<string | null>(null);
/** Moves made inside the console (not the first load): focus goes to the new page's heading. */
export const moves = signal(0);

addEventListener("popstate", () => {
  place.value = read();
  heading.value = null;
  moves.value++;
});

/** A console URL from path segments and a query. @example href(["ingredients", "Soybean meal 48%"]) */
export function href(parts: readonly string[], query?: Record<string, string | null | undefined>): string {
  const path = BASE + parts.map(encodeURIComponent).join("/");
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Go to a console URL; `replace` for changes of a filter or sort (no history entry per keystroke). */
export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  place.value = read();
  if (!replace) {
    heading.value = null;
    moves.value++;
    scrollTo(0, 0);
  }
}

/** The page's query with some parameters changed, as a URL of the same page. */
export function withQuery(changes: Record<string, string | null>): string {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === "") q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  return location.pathname + (s ? `?${s}` : "");
}

/** An ordinary link that moves inside the console without reloading (a new tab still works). */
export function Link(props: { href: string; class?: string; children: ComponentChildren; "aria-current"?: "page" | undefined }) {
  return (
    <a
      href={props.href}
      class={props.class}
      aria-current={props["aria-current"]}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

/**
 * A form over query parameters: its draft follows the URL (and whatever else `deps` names), and
 * submitting writes it to the URL without a history entry.
 * @example const { draft, setDraft, submit } = useQueryDraft({ size: "2000" }, [q.toString()])
 */
export function useQueryDraft<T extends Record<string, string>>(values: T, deps: readonly unknown[]) {
  const [draft, setDraft] = useState(values);
  useEffect(() => setDraft(values), deps);
  const submit = (e: Event) => {
    e.preventDefault();
    navigate(withQuery(draft), true);
  };
  return { draft, setDraft, submit };
}
