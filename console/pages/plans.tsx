/**
 * Plans: the production plans of the workspace (GET /v1/plans, newest first), each with its tonnage
 * and number of formulas; one request. A plan's own page optimizes it.
 */
import { count, day, T, tonnes } from "../format.ts";
import { href, Link } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, PlanSummary } from "../types.ts";
import { Empty, Loaded, Num, Table } from "../ui.tsx";

export function PlansPage() {
  const res = useResource<Envelope<PlanSummary[]>>("/v1/plans");
  return (
    <Loaded res={res} what="the plans" rows={5}>
      {({ data }) =>
        data.length === 0 ? (
          <Empty>
            No production plan yet. A plan is the tonnage of each formula for a period and what the mill has or must take of an ingredient; it enters with{" "}
            <code>PUT /v1/plans/ID</code> (a write key) or <code>feedbase plan import plans.json</code>.
          </Empty>
        ) : (
          <>
            <p class="lead">Open a plan to optimize all of its formulas together under the stock they share.</p>
            <Table
              caption="Production plans, newest first"
              rows={data}
              rowKey={(p) => p.id}
              columns={[
                { id: "name", label: "Plan", cell: (p) => <Link href={href(["plans", p.id])}>{p.name}</Link> },
                { id: "formulas", label: "Formulas", num: true, cell: (p) => <Num value={count(p.formulas)} unit={p.formulas === 1 ? "formula" : "formulas"} /> },
                { id: "tons", label: "Tonnage", num: true, cell: (p) => <Num value={tonnes(p.totalTons)} unit={T} /> },
                { id: "updated", label: "Changed", wide: true, cell: (p) => day(p.updatedAt) },
              ]}
            />
          </>
        )
      }
    </Loaded>
  );
}
