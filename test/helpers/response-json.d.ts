// Tests read many JSON shapes and assert on them directly; typing each would only restate the assertions.
interface Body {
  json(): Promise<any>;
}
interface Response {
  json(): Promise<any>;
}
