// SQL files imported `with { type: "text" }` are their text; `bun build --compile` embeds them.
declare module "*.sql" {
  const text: string;
  export default text;
}
