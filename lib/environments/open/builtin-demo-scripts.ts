/**
 * The demo model's scripts for the built-in open tasks: a scripted stand-in,
 * not an LLM. Per task: the Actor's first draft (`naive`, which misses one criterion), the better
 * answer it gives once its memory holds every `lessonKeywords` entry (`informed`), what its
 * Self-Reflection writes for each criterion the judge scored low (`lessons`), and the checks the
 * demo judge scores each criterion with (`checks`, data over the answer text: a stand-in for a
 * judge model's opinion, applied the same way to any answer).
 */

/** One check the demo judge applies to an answer (case-insensitive where it compares text). */
export type DemoCheck =
  | { kind: "includes-all"; terms: string[] }
  | { kind: "includes-any"; terms: string[] }
  | { kind: "excludes"; terms: string[] }
  | { kind: "not-starts-with"; terms: string[] }
  | { kind: "max-words"; max: number }
  | { kind: "max-chars"; max: number }
  | { kind: "first-line-max-chars"; max: number }
  | { kind: "first-line-no-period" }
  | { kind: "min-lines"; min: number };

/** The demo model's script for one built-in open task. */
export interface OpenDemoScript {
  thought: string;
  naive: string;
  informed: string;
  /** Case-insensitive substrings that must all be in the Actor prompt's memory block for `informed`. */
  lessonKeywords: string[];
  /** Per criterion id: what the next answer will do (the reflection's second sentence). The missed criterion's lesson holds every lesson keyword. */
  lessons: Record<string, string>;
  /** Per criterion id: the demo judge's checks; the criterion's score is the mean pass fraction × 5, rounded. */
  checks: Record<string, DemoCheck[]>;
}

export const builtinOpenDemoScripts: Record<string, OpenDemoScript> = {
  "open-explain-photosynthesis": {
    thought: "I should say what goes in and what comes out, in simple words and under 100 words.",
    naive:
      "Photosynthesis is how plants make their own food. They take in sunlight through their leaves, pull up water through their roots and take in carbon dioxide from the air. With the energy of the light they turn these into sugar, which feeds the plant, and they let out oxygen, which we breathe.",
    informed:
      "Think of a leaf as a tiny kitchen. The recipe needs three things: sunlight as the cooker's power, water pulled up from the roots, and carbon dioxide from the air. The leaf mixes them and cooks up sugar, the plant's food. Oxygen is left over, so the leaf lets it out into the air for us to breathe.",
    lessonKeywords: ["everyday comparison"],
    lessons: {
      accuracy: "name all five parts: sunlight, water and carbon dioxide go in, sugar and oxygen come out",
      "plain-words": "avoid words like chlorophyll or glucose and say sugar instead",
      analogy: "use an everyday comparison, such as a leaf being a tiny kitchen with a recipe, so the idea is concrete",
      length: "keep it under 100 words",
    },
    checks: {
      accuracy: [{ kind: "includes-all", terms: ["sunlight", "water", "carbon dioxide", "sugar", "oxygen"] }],
      "plain-words": [{ kind: "excludes", terms: ["chlorophyll", "glucose", "adenosine"] }],
      analogy: [{ kind: "includes-any", terms: ["kitchen", "factory", "recipe", "like a"] }],
      length: [{ kind: "max-words", max: 100 }],
    },
  },
  "open-commit-message": {
    thought: "A short imperative subject naming the function and the empty input.",
    naive: "Reject empty input in parseDate",
    informed:
      "Reject empty input in parseDate\n\nBefore this change an empty string was split into [\"\"] and silently became an Invalid Date instead of an error. Throw a RangeError so callers see the mistake where it happens.",
    lessonKeywords: ["body", "why"],
    lessons: {
      subject: "keep the subject under 50 characters, imperative, with no trailing period",
      why: "add a body after a blank line that explains why the change is needed, saying what went wrong before",
      specific: "name parseDate and the empty-input case",
    },
    checks: {
      subject: [{ kind: "first-line-max-chars", max: 50 }, { kind: "first-line-no-period" }],
      why: [{ kind: "min-lines", min: 3 }, { kind: "includes-any", terms: ["before", "previously", "silently", "used to"] }],
      specific: [{ kind: "includes-all", terms: ["parseDate", "empty"] }],
    },
  },
  "open-summary-bridge": {
    thought: "Short: the bridge, when it opened and who designed it.",
    naive: "The Larkspur Bridge carries the coastal railway over the Venn estuary. It opened in 1931 and was designed by the engineer Mira Okafor, who chose a steel arch for the soft mud.",
    informed:
      "The Larkspur Bridge, a 412-metre steel arch designed by the engineer Mira Okafor, opened in 1931 to carry the coastal railway over the Venn estuary, whose soft mud ruled out a suspension bridge.",
    lessonKeywords: ["412"],
    lessons: {
      facts: "keep every named fact, including the length of 412 metres, and cut minor details instead",
      length: "stay under 40 words",
      faithful: "add nothing the paragraph does not say",
    },
    checks: {
      facts: [{ kind: "includes-all", terms: ["1931", "Okafor", "412"] }],
      length: [{ kind: "max-words", max: 39 }],
      faithful: [{ kind: "excludes", terms: ["longest in the world", "collapsed", "tallest"] }],
    },
  },
  "open-polite-refusal": {
    thought: "Thank them, say no clearly and give the 30-day policy as the reason.",
    naive:
      "Dear customer, thank you for writing to us. I'm sorry, but we cannot refund the Arden lamp: our policy allows refunds only within 30 days of purchase, and it has been 90 days. Kind regards, the Arden team.",
    informed:
      "Dear customer, thank you for writing to us. I'm sorry, but we cannot refund the Arden lamp: our policy allows refunds only within 30 days of purchase, and it has been 90 days. What we can offer is an exchange for the same lamp in another colour, or store credit for its full price. Kind regards, the Arden team.",
    lessonKeywords: ["alternative"],
    lessons: {
      polite: "thank the customer and say sorry",
      "clear-no": "say plainly that the refund cannot be given",
      reason: "give the 30-day policy as the reason",
      alternative: "offer a helpful alternative, such as an exchange for another colour or store credit",
    },
    checks: {
      polite: [{ kind: "includes-any", terms: ["thank", "sorry"] }],
      "clear-no": [{ kind: "includes-any", terms: ["cannot", "can't", "unable", "not able"] }],
      reason: [{ kind: "includes-all", terms: ["30 days"] }],
      alternative: [{ kind: "includes-any", terms: ["exchange", "store credit", "discount", "voucher"] }],
    },
  },
  "open-bug-report": {
    thought: "Steps, then expected versus actual.",
    naive: "Steps: open a note, click into the search box, press Ctrl+S. Expected: the note is saved. Instead: nothing happens, the note is not saved and no message appears.",
    informed:
      "Steps: open a note, click into the search box, press Ctrl+S. Expected: the note is saved. Instead: nothing happens, the note is not saved and no message appears. Environment: Notes 4.2.1 on Windows 11.",
    lessonKeywords: ["version"],
    lessons: {
      steps: "list the steps to reproduce",
      "expected-actual": "say what was expected and what happened instead",
      environment: "always name the version and the operating system (here 4.2.1 on Windows 11)",
      concise: "stay under 120 words",
    },
    checks: {
      steps: [{ kind: "includes-all", terms: ["search box", "Ctrl+S"] }],
      "expected-actual": [{ kind: "includes-all", terms: ["expected", "instead"] }],
      environment: [{ kind: "includes-all", terms: ["4.2.1", "Windows 11"] }],
      concise: [{ kind: "max-words", max: 120 }],
    },
  },
  "open-scheduling-reply": {
    thought: "Friendly, two concrete slots, short.",
    naive: "Hi Sam, happy to go over the budget. Would Tuesday at 10:00 or Thursday at 15:00 work for you? Either slot gives us the 30 minutes. Best, Alex",
    informed:
      "Hi Sam, happy to go over the budget. Would Tuesday at 10:00 or Thursday at 15:00 (both Central European Time, CET) work for you? Tell me if another slot suits your time zone better. Best, Alex",
    lessonKeywords: ["time zone"],
    lessons: {
      slots: "propose two concrete slots with a day and a time",
      "time-zone": "state the time zone of every proposed slot, since Sam is in another city",
      tone: "keep a friendly, professional tone",
      length: "stay under 80 words",
    },
    checks: {
      slots: [{ kind: "includes-all", terms: ["Tuesday", "Thursday"] }],
      "time-zone": [{ kind: "includes-any", terms: ["CET", "GMT", "UTC", "time zone", "Central European", "Pacific Time", "Eastern Time"] }],
      tone: [{ kind: "includes-any", terms: ["happy", "glad", "thanks", "thank"] }],
      length: [{ kind: "max-words", max: 79 }],
    },
  },
  "open-alt-text": {
    thought: "Say what is in the picture and quote the sign.",
    naive: "Image of a smiling baker holding a tray of croissants by a chalkboard sign reading 'Fresh at 7am'.",
    informed: "Smiling baker in a floury apron holds a tray of croissants by a chalkboard sign reading 'Fresh at 7am'.",
    lessonKeywords: ["image of"],
    lessons: {
      subject: "describe the baker and the tray of croissants",
      sign: "quote the sign's text",
      "no-preamble": "not start with 'Image of' but with the subject itself, since screen readers already announce an image",
      length: "stay under 125 characters",
    },
    checks: {
      subject: [{ kind: "includes-all", terms: ["baker", "croissants"] }],
      sign: [{ kind: "includes-all", terms: ["Fresh at 7am"] }],
      "no-preamble": [{ kind: "not-starts-with", terms: ["image of", "picture of", "photo of"] }],
      length: [{ kind: "max-chars", max: 125 }],
    },
  },
  "open-grease-fire": {
    thought: "The key warning is no water; then smother it and know when to leave.",
    naive:
      "1. Never throw water on burning oil: it makes the fire flare up.\n2. Cover the pan with a metal lid or a fire blanket.\n3. Leave the pan covered until it has cooled down.\n4. If the fire spreads, get everyone out and call the emergency number.",
    informed:
      "1. Turn off the heat under the pan if you can reach it safely.\n2. Never throw water on burning oil: it makes the fire flare up.\n3. Cover the pan with a metal lid or a fire blanket.\n4. Leave the pan covered until it has cooled down.\n5. If the fire spreads, get everyone out and call the emergency number.",
    lessonKeywords: ["heat"],
    lessons: {
      "no-water": "warn never to use water",
      smother: "say to cover the pan with a lid or a fire blanket",
      "heat-off": "start by turning off the heat under the pan, before covering it",
      escalate: "say to get out and call the emergency number if it spreads",
    },
    checks: {
      "no-water": [{ kind: "includes-all", terms: ["water"] }, { kind: "includes-any", terms: ["never", "do not", "don't"] }],
      smother: [{ kind: "includes-any", terms: ["lid", "fire blanket"] }],
      "heat-off": [{ kind: "includes-any", terms: ["turn off the heat", "switch off the heat", "turn off the stove", "turn off the burner"] }],
      escalate: [{ kind: "includes-any", terms: ["emergency", "call"] }],
    },
  },
};
