/**
 * A learner's reflection per built-in task, written by hand in other words
 * than the demo model's scripted reflection (never derived from it): each
 * states the task's key facts the way a student might. Used by the key-fact
 * tests and the fork-through-the-engine tests.
 */
export const CORRECT_PARAPHRASES: Readonly<Record<string, string>> = {
  "qa-builtin-01": "I gave a town's name when a waterway was asked for. Next time I'll look up Dunmere's page and reply with the stream that flows through it.",
  "qa-builtin-02": "Searching with a description found no page at all. Use the page name itself: look up Port Averly, read who founded it, then look up that explorer.",
  "qa-builtin-03": "1893 is when the picture was finished, not what was asked. Look up Carrow University and give the year it was established.",
  "qa-builtin-04": "I mixed up two peaks: Orrin is not where the line ends. I must look up Mount Orrel, spelled as on the railway page, and give its height.",
  "qa-builtin-05": "English was only the language of the translation of his poems. Look up Velk, where he came from, and give the language its inhabitants use.",
  "qa-builtin-06": "Peter Hallam is a novelist whose surname just matches. Look up Hallam Bridge and give the engineer named on its page.",
  "qa-builtin-07": "Kettle Lane is only a street. Look up Kettle Lane Quartet, see who started it, then look that person up for what they played.",
  "qa-builtin-08": "The company's name is not a place. Look up Orme and Pickett Works and give the town where its headquarters were.",
  "qa-builtin-09": "Cora Valine is a stage name. I should read her page and give her real name, the one on her birth certificate.",
  "qa-builtin-10": "Descriptive searches find no page. First look up Ostwick itself to learn which nation it is the capital of, then look up that nation's dish.",
  "qa-builtin-11": "Pepper belonged to the writer herself. Look up her character Fenwick Hale and give his dog's name.",
  "qa-builtin-12": "1962 is when she won, not what was asked. Look up Marsh Hill School and give the year it shut down.",
  "household-builtin-01": "The lamp was on the desk all along. Go to the lamp first, then bring the mug from shelf 2 back to it and switch the lamp on.",
  "household-builtin-02": "The card was never going to be visible while the drawer stayed shut. Next time open the drawer and look inside before searching anywhere else.",
  "household-builtin-03": "The stove burner does nothing here. Next time carry the potato to the microwave and heat it there, then put it on the countertop.",
  "household-builtin-04": "You can't chill something you are not carrying. Pick up the tomato from the countertop first, then cool it in the fridge and set it on the dining table.",
  "household-builtin-05": "Putting away a dirty bar doesn't count. Wash the soap at the sink before it goes into the cabinet.",
  "household-builtin-06": "My hands hold a single thing. Take the spoons to the drawer separately, making two trips.",
  "code-py-01": 'It crashed on "" because it read the first character of nothing. Next time return early when the input is blank.',
  "code-py-02": "Rotating by 6 on four items went wrong. Take the remainder of k divided by the length first; an empty list returns right away.",
  "code-py-03": "I trusted the input order. Sort by the start value before merging anything.",
  "code-py-04": "Two spaces in a row produced a blank key. Split on whitespace runs and ignore blank tokens.",
  "code-py-05": "An opening brace with no partner slipped through. At the end, return False unless the stack is empty.",
  "code-py-06": "A negative number broke the int conversion. Drop the sign with abs(n) before summing the digits.",
  "code-py-07": "When the maximum appears twice the answer is wrong. Work on the unique values and take the second highest.",
  "code-py-08": "With four values I returned one of the centre numbers. For an even count, take the mean of the pair in the centre.",
  "code-py-09": '"30m" has no hours and my split assumed it did. Hours or minutes can be absent, so read each number with its own unit.',
  "code-py-10": "1800 is not a leap year. Years divisible by 100 are leap years only if 400 also divides them.",
  "code-js-01": "The tail of the array was dropped. Keep whatever remains as a final, smaller group.",
  "code-js-02": "Uppercase letters after the first stayed uppercase, and two spaces in a row crashed it. Make the remaining letters lower case and skip blank pieces.",
  "code-js-03": "With nothing numeric I divided zero by zero. If no valid number remains, give back null before dividing.",
  "code-js-04": "concat flattens just one layer. Call the function on itself for nested arrays so all levels are flattened.",
  "code-js-05": "14 came out as XIIII. Add the pairs like IV and IX, where a smaller symbol comes before a larger one.",
  "code-ts-01": "Kiwi, kiwi and KIWI are the same word. Compare lower-case keys and keep the earliest version of each.",
  "code-ts-02": "With nothing but minus values it reported 0. Start from the first element so a list of negatives returns its biggest entry.",
  "code-ts-03": "The question mark and blanks broke the comparison. Keep only alphanumeric characters before comparing.",
  "code-ts-04": "When two words had the same count, the later one won. Only replace the leader on a strictly higher count.",
  "code-ts-05": 'A one-item list printed " and only", and three items lacked the serial comma. Return a lone item as is and put a comma before and for three or more.',
};

/** The chain-of-thought lessons of the four QA "phrasing" tasks, in other words. */
export const CORRECT_COT_PARAPHRASES: Readonly<Record<string, string>> = {
  "qa-builtin-02": "The facts were right but my answer was a whole sentence. Give just the name of the ship and nothing more.",
  "qa-builtin-04": "The number was right but I wrote the unit as m, so the wording failed. Write the height in meters, spelled out.",
  "qa-builtin-07": "I got the right instrument but my answer's wording was a full sentence. Answer with the instrument alone.",
  "qa-builtin-10": "Right dish, but the extra words about serving it broke exact match. Answer with only the name.",
};

/** Reflections that name no key fact of any task. */
export const UNHELPFUL_REFLECTIONS: readonly string[] = [
  "I should be more careful.",
  "I failed. Next time I will think harder and double-check my work before I answer.",
];
