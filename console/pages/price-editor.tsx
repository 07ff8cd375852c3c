/** A write key's price and stock form (PUT /v1/prices/:name): the saved answer, or the API's message. */
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { money, PER_T } from "../format.ts";

export function PriceEditor(props: { name: string; price: number; inStock: boolean; onSaved: () => void }) {
  const [price, setPrice] = useState(String(props.price));
  const [inStock, setInStock] = useState(props.inStock);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function save() {
    const value = Number(price);
    if (price.trim() === "" || !Number.isFinite(value) || value < 0) {
      setMessage({ ok: false, text: "The price must be a number of 0 or more (per tonne)." });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const answer = await api<{ data: { price: number; inStock: boolean } }>(`/v1/prices/${encodeURIComponent(props.name)}`, { method: "PUT", body: { price: value, inStock } });
      setMessage({ ok: true, text: `Saved: ${money(answer.data.price)} ${PER_T}, ${answer.data.inStock ? "in stock" : "out of stock"}.` });
      props.onSaved();
    } catch (e) {
      setMessage({ ok: false, text: e instanceof ApiError ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="editor"
      aria-labelledby="edit-price-h"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="edit-price-h">Change price or stock</h2>
      <div class="row">
        <label>
          <span>
            New price <span class="unit">{PER_T}</span>
          </span>
          <input name="price" type="number" inputMode="decimal" min="0" step="any" value={price} onInput={(e) => setPrice(e.currentTarget.value)} required />
        </label>
        <label class="check">
          <input name="inStock" type="checkbox" checked={inStock} onChange={(e) => setInStock(e.currentTarget.checked)} /> In stock
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save price"}
        </button>
      </div>
      <p role="status" class={message ? (message.ok ? "ok-text" : "error-text") : "small"}>
        {message?.text ?? "Saved at once to the price list and its history; webhooks hear of it."}
      </p>
    </form>
  );
}
