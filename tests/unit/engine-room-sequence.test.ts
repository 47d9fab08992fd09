import { describe, expect, test } from "vitest";
import { ARTICLE_DELIVERIES_TEXT, ARTICLE_EVENTS_TEXT, articleSequence, isArticleSequence, parseSequence } from "../../lib/inbox/engine-room/sequence";

describe("Engine Room sequences", () => {
  test("the article's: three events, nine deliveries, the worker stopping on the first plan change", () => {
    const s = articleSequence();
    expect(s.events).toEqual([
      { name: "plan", type: "customer.plan_changed", plan: "pro", offsetSeconds: 0 },
      { name: "pay", type: "customer.payment_succeeded", plan: "pro", offsetSeconds: 1 },
      { name: "cancel", type: "customer.agreement_cancelled", plan: null, offsetSeconds: -180 },
    ]);
    expect(s.deliveries.map((d) => `${d.event}${d.stopWorker ? "!" : ""}`).join(" ")).toBe("pay plan! plan pay pay pay cancel plan pay");
    expect(s.deliveries.filter((d) => d.event === "plan")).toHaveLength(3);
    expect(s.deliveries.filter((d) => d.event === "pay")).toHaveLength(5);
    expect(isArticleSequence(` ${ARTICLE_EVENTS_TEXT}\n`, `${ARTICLE_DELIVERIES_TEXT}  `)).toBe(true);
    expect(isArticleSequence(ARTICLE_EVENTS_TEXT, "pay plan")).toBe(false);
  });

  test.each([
    ["plan customer.plan_changed pro", "plan", /expected "<name> <type>/],
    ["plan customer.plan_changed pro 0\nplan customer.plan_changed pro 0", "plan", /used twice/],
    ["Plan customer.plan_changed pro 0", "Plan", /lowercase/],
    ["plan plan_changed pro 0", "plan", /not an event type/],
    ["plan customer.plan_changed pro 1.5", "plan", /whole seconds/],
    ["plan customer.plan_changed pro 99999999", "plan", /whole seconds/],
    ["plan customer.plan_changed pro 0", "plan nope", /no event is named "nope"/],
    ["plan customer.plan_changed pro 0", "plan plan!", /only stop on an event's first delivery/],
    ["plan customer.plan_changed pro 0", "", /at least one delivery/],
    ["", "plan", /at least one event/],
    ["plan customer.plan_changed pro 0", Array(41).fill("plan").join(" "), /at most 40 deliveries/],
  ])("%j / %j is refused with a reason", (events, deliveries, reason) => {
    expect(() => parseSequence(events, deliveries)).toThrow(reason);
  });
});
