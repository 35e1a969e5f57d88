// Time added as the live board and the invigilator's confirmation say it (decision 037).
import { describe, expect, it } from "vitest";
import { addedTimeText } from "./students.ts";

describe("time added, in words", () => {
  it("says whole minutes as minutes, part of one in seconds, and never a zero part", () => {
    expect(addedTimeText(60)).toBe("1 min");
    expect(addedTimeText(180 * 60)).toBe("180 min");
    expect(addedTimeText(90)).toBe("1 min 30 s");
    // A drive's closing can cut an add to less than a minute: "0 min 30 s" said nothing the seconds did not.
    expect(addedTimeText(30)).toBe("30 s");
    expect(addedTimeText(29.6)).toBe("30 s");
    expect(addedTimeText(-2)).toBe("0 s");
  });
});
