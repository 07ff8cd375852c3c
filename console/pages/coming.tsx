/** A page whose API is still being built: says so plainly, with the way back. */
import { Link } from "../router.tsx";

export function Coming(props: { what: string; back: string }) {
  return (
    <div class="note coming" data-coming={props.what}>
      <p>
        <strong>{props.what}</strong> is coming: the API it draws on is not in this version of feedbase yet. Everything else in the console works
        today.
      </p>
      <p>
        <Link href={props.back}>Go back</Link>
      </p>
    </div>
  );
}

/** The formula pages still to come, as links on the formula page. */
export const COMING_LINKS = [{ part: "confidence", label: "Confidence" }] as const;
