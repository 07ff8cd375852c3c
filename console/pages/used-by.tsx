/**
 * The formulas that use an ingredient, with what +10 on its price per tonne adds to each (percent/100 ×
 * 10 per tonne). The list has no compositions, so each formula is read once (answers are kept in the tab
 * and asked again with If-None-Match, which the limit does not count when nothing changed).
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { count, money, PER_T, share } from "../format.ts";
import { href, Link } from "../router.tsx";
import type { Envelope, FormulaDetail, FormulaListItem } from "../types.ts";
import { Empty, ErrorNote, Loading, Num, Table } from "../ui.tsx";

interface Use {
  id: string;
  name: string;
  percent: number;
  batchSize: number;
}

export function UsedBy(props: { name: string; formulas: Envelope<FormulaListItem[]> }) {
  const [uses, setUses] = useState<Use[] | ApiError | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    setUses(null);
    Promise.all(props.formulas.data.map((f) => api<Envelope<FormulaDetail>>(`/v1/formulas/${encodeURIComponent(f.id)}`, { signal: ctrl.signal }))).then(
      (details) =>
        setUses(
          details.flatMap(({ data: f }) => {
            const row = f.ingredients.find((i) => i.name === props.name);
            return row ? [{ id: f.id, name: f.name, percent: row.percent, batchSize: f.batchSize }] : [];
          }),
        ),
      (e) => !ctrl.signal.aborted && setUses(e instanceof ApiError ? e : new ApiError(String(e), 0)),
    );
    return () => ctrl.abort();
  }, [props.name, props.formulas]);
  if (uses === null) return <Loading what="the formulas that use it" rows={2} />;
  if (uses instanceof ApiError) return <ErrorNote error={uses} what="Could not read the formulas" />;
  if (uses.length === 0) return <Empty>No saved formula uses {props.name}.</Empty>;
  return (
    <Table
      caption={`Formulas containing ${props.name}, and the cost of +10 ${PER_T} on its price`}
      rows={uses.sort((a, b) => b.percent - a.percent)}
      rowKey={(u) => u.id}
      columns={[
        { id: "name", label: "Formula", cell: (u) => <Link href={href(["formulas", u.id])}>{u.name}</Link> },
        { id: "percent", label: "Inclusion", num: true, cell: (u) => <Num value={share(u.percent)} unit="%" /> },
        { id: "perTon", label: "+10 on its price adds", num: true, cell: (u) => <Num value={money((u.percent / 100) * 10)} unit={PER_T} /> },
        { id: "perBatch", label: "per batch", num: true, cell: (u) => <Num value={money((u.percent / 100) * 10 * (u.batchSize / 1000))} unit={`per ${count(u.batchSize)} kg`} /> },
      ]}
    />
  );
}
