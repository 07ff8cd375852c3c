/** The tests' seeded generator is the product's own (the demo's price walk uses it too). */
export { seeded } from "../../src/domain/random.ts";
