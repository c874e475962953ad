import path from "node:path";

/** The shared benchmark data folder (`../shared/data` from the repo root). */
export const SHARED_DATA = path.resolve(process.cwd(), "../shared/data");

/** A small MBPP fixture in the original google-research layout (fields as in mbpp.jsonl). */
export const MBPP_FIXTURE = [
  {
    task_id: 11,
    text: "Write a python function to remove first and last occurrence of a given character from the string.",
    code: "def remove_Occ(s,ch): \r\n    for i in range(len(s)): \r\n        if (s[i] == ch): \r\n            s = s[0 : i] + s[i + 1:] \r\n            break\r\n    for i in range(len(s) - 1,-1,-1):  \r\n        if (s[i] == ch): \r\n            s = s[0 : i] + s[i + 1:] \r\n            break\r\n    return s ",
    test_list: ['assert remove_Occ("hello","l") == "heo"', 'assert remove_Occ("abcda","a") == "bcd"', 'assert remove_Occ("PHP","P") == "H"'],
    test_setup_code: "",
    challenge_test_list: ['assert remove_Occ("hellolloll","l") == "helollol"'],
  },
  {
    task_id: 17,
    text: "Write a function to find the perimeter of a square.",
    code: "def square_perimeter(a):\r\n  perimeter=4*a\r\n  return perimeter",
    test_list: ["assert square_perimeter(10)==40", "assert square_perimeter(5)==20", "assert square_perimeter(4)==16"],
    test_setup_code: "",
    challenge_test_list: [],
  },
  {
    task_id: 900,
    text: "Write a function that returns the scaled value (uses set-up code).",
    code: "def scaled(x):\n    return x * FACTOR\n",
    test_list: ["assert scaled(2) == 2 * FACTOR", "assert math.isclose(scaled(0.5), 0.5 * FACTOR)"],
    test_setup_code: "import math\nFACTOR = 3",
    challenge_test_list: [],
  },
];
