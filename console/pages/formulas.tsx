/**
 * Formulas: each with its saved cost, its cost at today's prices, the change, and the saving the
 * optimizer finds, all per tonne. Two requests: the list and the savings worklist (which costs every
 * formula at today's prices and optimizes it).
 */
import { change, money, PER_T, pct, perTon } from "../format.ts";
import { href, Link, navigate, place, withQuery } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, FormulaListItem, SavingsRow } from "../types.ts";
import { Empty, ErrorNote, Loading, Num, sortRows, Table, type Column, type Sort } from "../ui.tsx";

interface Row extends FormulaListItem {
  savedPerTon: number;
  todayPerTon: number | null;
  changePerTon: number | null;
  saving: SavingsRow | null;
}


export function FormulasPage() {
  const list = useResource<Envelope<FormulaListItem[]>>("/v1/formulas");
  const savings = useResource<Envelope<SavingsRow[]>>("/v1/reports/savings");
  const q = place.value.query;
  const sort: Sort = { by: q.get("sort") ?? "saving", dir: q.get("dir") === "asc" ? "asc" : "desc" };
  if (list.state === "loading") return <Loading what="the formulas" rows={8} />;
  if (list.state === "error") return <ErrorNote error={list.error} retry={list.reload} what="Could not load the formulas" />;
  const byId = new Map((savings.state === "ready" ? savings.data.data : []).map((s) => [s.id, s]));
  const rows: Row[] = list.data.data.map((f) => {
    const s = byId.get(f.id) ?? null;
    const savedPerTon = perTon(f.totalCost, f.batchSize);
    const todayPerTon = s ? perTon(s.cost, f.batchSize) : null;
    return { ...f, savedPerTon, todayPerTon, changePerTon: todayPerTon === null ? null : Math.round((todayPerTon - savedPerTon) * 100) / 100, saving: s };
  });
  const columns: Column<Row>[] = [
    { id: "name", label: "Formula", cell: (r) => <Link href={href(["formulas", r.id])}>{r.name}</Link>, sortBy: (r) => r.name },
    { id: "species", label: "Species", wide: true, cell: (r) => `${r.species} · ${r.subcategory}`, sortBy: (r) => `${r.species} ${r.subcategory}` },
    { id: "saved", label: "Saved cost", num: true, wide: true, cell: (r) => <Num value={money(r.savedPerTon)} unit={PER_T} />, sortBy: (r) => r.savedPerTon },
    { id: "today", label: "Cost today", num: true, cell: (r) => (r.todayPerTon === null ? "…" : <Num value={money(r.todayPerTon)} unit={PER_T} />), sortBy: (r) => r.todayPerTon ?? 0 },
    {
      id: "change",
      label: "Change",
      num: true,
      cell: (r) => (r.changePerTon === null ? "…" : <Num value={change(r.changePerTon)} unit={PER_T} class={r.changePerTon > 0 ? "up" : r.changePerTon < 0 ? "down" : ""} />),
      sortBy: (r) => r.changePerTon ?? 0,
    },
    {
      id: "saving",
      label: "Optimizer saves",
      num: true,
      cell: (r) =>
        r.saving === null ? (
          "…"
        ) : r.saving.saving === null ? (
          <span class="small">{r.saving.status === "infeasible" ? "infeasible at today's prices" : r.saving.status}</span>
        ) : (
          <Link href={href(["formulas", r.id, "optimize"])}>
            <Num value={money(r.saving.saving.perTon)} unit={PER_T} /> <span class="small">({pct(r.saving.saving.percent)})</span>
          </Link>
        ),
      sortBy: (r) => r.saving?.saving?.perTon ?? -Infinity,
    },
  ];
  return (
    <>
      {savings.state === "error" ? <ErrorNote error={savings.error} retry={savings.reload} what="Could not load today's costs and savings" /> : null}
      {savings.state === "loading" ? (
        <p class="small loading" role="status">
          Costing every formula at today's prices and optimizing it…
        </p>
      ) : null}
      {rows.length === 0 ? (
        <Empty>No formula yet. Formulas enter with feedbase import formulas, or PUT /v1/formulas/:id.</Empty>
      ) : (
        <Table
          caption="Saved formulas, costs per tonne"
          columns={columns}
          rows={sortRows(rows, columns, sort)}
          rowKey={(r) => r.id}
          sort={sort}
          onSort={(s) => navigate(withQuery({ sort: s.by === "saving" ? null : s.by, dir: s.dir === "desc" ? null : "asc" }), true)}
        />
      )}
    </>
  );
}
