/**
 * The feedbase console: a single page under /console/ that reads and writes only through /v1 with the
 * key the user signs in with. The shell (header, navigation, the key's rights) and the route table.
 */
import { render, type ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, quota, session, signIn, signOut, storedKey } from "./api.ts";
import { heading, href, Link, moves, place } from "./router.tsx";
import { count } from "./format.ts";
import { SignIn } from "./pages/signin.tsx";
import { PricesPage } from "./pages/prices.tsx";
import { IngredientPage } from "./pages/ingredient.tsx";
import { FormulasPage } from "./pages/formulas.tsx";
import { FormulaPage } from "./pages/formula.tsx";
import { OptimizePage } from "./pages/optimize.tsx";
import { ReportsPage } from "./pages/reports.tsx";
import { EventsPage } from "./pages/events.tsx";
import { BatchPage } from "./pages/batch.tsx";
import { SweepPage } from "./pages/sweep.tsx";
import { FrontierPage } from "./pages/frontier.tsx";
import { PlansPage } from "./pages/plans.tsx";
import { ConfidencePage } from "./pages/confidence.tsx";
import { PlanPage } from "./pages/plan.tsx";

interface Screen {
  title: string;
  /** The navigation entry this page belongs to. */
  section: string;
  body: () => ComponentChildren;
}

const NAV = [
  { section: "prices", label: "Prices", parts: [] as string[] },
  { section: "formulas", label: "Formulas", parts: ["formulas"] },
  { section: "reports", label: "Reports", parts: ["reports"] },
  { section: "plans", label: "Plans", parts: ["plans"] },
  { section: "events", label: "Events", parts: ["events"] },
];

/** The page a path names. */
function screenFor(parts: readonly string[]): Screen {
  const [first, second, third] = parts;
  if (!first || first === "prices") return { title: "Prices", section: "prices", body: () => <PricesPage /> };
  if (first === "ingredients" && second) return { title: second, section: "prices", body: () => <IngredientPage name={second} /> };
  if (first === "formulas" && !second) return { title: "Formulas", section: "formulas", body: () => <FormulasPage /> };
  if (first === "formulas" && second && !third) return { title: `Formula ${second}`, section: "formulas", body: () => <FormulaPage id={second} /> };
  if (first === "formulas" && second && third === "optimize") return { title: `Optimize ${second}`, section: "formulas", body: () => <OptimizePage id={second} /> };
  if (first === "formulas" && second && third === "sweep") return { title: "Sweep", section: "formulas", body: () => <SweepPage id={second} /> };
  if (first === "formulas" && second && third === "frontier") return { title: "Frontier", section: "formulas", body: () => <FrontierPage id={second} /> };
  if (first === "formulas" && second && third === "batch-sheet") return { title: "Batch sheet", section: "formulas", body: () => <BatchPage id={second} /> };
  if (first === "formulas" && second && third === "confidence") return { title: "Confidence", section: "formulas", body: () => <ConfidencePage id={second} /> };
  if (first === "plans" && !second) return { title: "Plans", section: "plans", body: () => <PlansPage /> };
  if (first === "plans" && second && !third) return { title: `Plan ${second}`, section: "plans", body: () => <PlanPage id={second} /> };
  if (first === "reports") return { title: "Reports", section: "reports", body: () => <ReportsPage /> };
  if (first === "events") return { title: "Events", section: "events", body: () => <EventsPage /> };
  return { title: "Page not found", section: "", body: () => <p class="note">There is no console page at this address. Start from the price list.</p> };
}

function Shell(props: { screen: Screen }) {
  const info = session.value!;
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${heading.value ?? props.screen.title} · feedbase`;
  }, [props.screen.title, heading.value]);
  // After a move inside the console, focus goes to the new page's heading (screen readers announce it).
  useEffect(() => {
    if (moves.value > 0) h1.current?.focus();
  }, [moves.value]);
  const left = quota.value;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href={href([])} class="brand">
          feedbase
        </Link>
        <nav aria-label="Sections">
          <ul>
            {NAV.map((n) => (
              <li key={n.section}>
                <Link href={href(n.parts)} aria-current={props.screen.section === n.section ? "page" : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            Workspace <strong>{info.workspace}</strong>
          </span>
          <span class={info.write ? "badge ok" : "badge"}>{info.write ? "can edit" : "read only"}</span>
          {left ? (
            <span class="small" title="Requests this key may still make this hour">
              {count(left.remaining)} of {count(left.limit)} requests left this hour
            </span>
          ) : null}
          <button type="button" class="link" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" data-page={props.screen.section}>
        <h1 tabIndex={-1} ref={h1}>
          {heading.value ?? props.screen.title}
        </h1>
        {props.screen.body()}
      </main>
    </>
  );
}

function App() {
  // A key kept in this tab (a reload): ask what it may do before showing anything.
  const [checking, setChecking] = useState(() => storedKey() !== null && session.value === null);
  useEffect(() => {
    if (!checking) return;
    signIn(storedKey()!)
      .catch((e) => e instanceof ApiError || Promise.reject(e))
      .finally(() => setChecking(false));
  }, []);
  if (checking)
    return (
      <p class="boot" role="status">
        Checking your key…
      </p>
    );
  if (session.value === null) return <SignIn />;
  return <Shell screen={screenFor(place.value.parts)} />;
}

const root = document.getElementById("app")!;
// Preact 11 renders beside what is there: the loading line of index.html goes first.
root.replaceChildren();
render(<App />, root);
