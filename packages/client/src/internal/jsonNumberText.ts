/** A JSON number given as its exact text (for example `"12.345678901234567890"`), written into the body verbatim. */
export class JsonNumberText {
  constructor(readonly text: string) {}
}
