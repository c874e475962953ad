import type { QaParagraph, QaTask } from "./task";

/**
 * The built-in QA task set: twelve two-hop questions written for this project
 * about an invented world (towns, people and works that do not exist), so no
 * dataset licence applies and no model can answer from memory.
 *
 * Every task is a bridge question in the HotpotQA sense: `Search` on the page
 * the question names reveals a second entity (the bridge), and only that
 * entity's page holds the answer. Each task has 4 paragraphs: the 2 supporting
 * pages (listed in `supportingTitles`, first the question's page, then the
 * bridge's) and 2 plausible distractors (look-alike titles or pages with a
 * tempting wrong answer). The offline demo model's script for each task lives
 * in builtin-demo-scripts.ts under the same id.
 */

function paragraph(title: string, ...sentences: string[]): QaParagraph {
  return { title, sentences };
}

/** The built-in tasks, ids `qa-builtin-01` … `qa-builtin-12`, in a stable order. */
export const builtinQaTasks: QaTask[] = [
  {
    id: "qa-builtin-01",
    question: "Which river runs through the town where the opera The Glass Orchard was first staged?",
    answer: "River Sallow",
    type: "bridge",
    supportingTitles: ["The Glass Orchard", "Dunmere"],
    paragraphs: [
      paragraph(
        "The Glass Orchard",
        "The Glass Orchard is a chamber opera in three acts by the composer Ilse Marrow.",
        "It was first staged in 1911 at the Corn Exchange in Dunmere.",
        "The libretto follows a family of glassblowers through one hard winter.",
      ),
      paragraph(
        "Dunmere",
        "Dunmere is a market town in the Lowen Valley.",
        "The River Sallow runs through the town centre and once powered its wool mills.",
        "A wool fair has been held in Dunmere every autumn since 1790.",
      ),
      paragraph(
        "The Glass Orchard (novel)",
        "The Glass Orchard is a 1968 novel by Peter Hallam.",
        "It is set on a fruit farm beside the River Tey.",
      ),
      paragraph(
        "Dunmore",
        "Dunmore is a fishing village on the Kestle coast.",
        "The Brannock Water reaches the sea at its harbour.",
      ),
    ],
  },
  {
    id: "qa-builtin-02",
    question: "What was the name of the ship commanded by the explorer who founded Port Averly?",
    answer: "Grey Heron",
    type: "bridge",
    supportingTitles: ["Port Averly", "Marta Quell"],
    paragraphs: [
      paragraph(
        "Port Averly",
        "Port Averly is a harbour settlement on the northern shore of Skarn Island.",
        "It was founded in 1702 by the explorer Marta Quell.",
        "Fewer than two thousand people live there.",
      ),
      paragraph(
        "Marta Quell",
        "Marta Quell (1661–1729) was a navigator and explorer.",
        "She commanded the ship Grey Heron on three voyages to the northern islands.",
        "Her charts of Skarn Island were used for a century.",
      ),
      paragraph(
        "Port Avery",
        "Port Avery is a river port on the Calder estuary.",
        "It was founded by merchants from Hollin in 1688.",
      ),
      paragraph(
        "Skarn Island",
        "Skarn Island is the largest of the northern islands.",
        "Its only harbour is at Port Averly, and its highest point is Tarrow Fell.",
      ),
    ],
  },
  {
    id: "qa-builtin-03",
    question: "In what year was the university attended by the painter of Harvest at Lennick founded?",
    answer: "1821",
    type: "bridge",
    supportingTitles: ["Harvest at Lennick", "Carrow University"],
    paragraphs: [
      paragraph(
        "Harvest at Lennick",
        "Harvest at Lennick is an oil painting completed in 1893.",
        "It was painted by Edda Voss, who had studied at Carrow University before moving to the coast.",
        "The painting hangs in Lennick Town Hall.",
      ),
      paragraph(
        "Carrow University",
        "Carrow University is a public university in the city of Carrow.",
        "It was founded in 1821 as a college of mining.",
        "Its library holds a large collection of early maps.",
      ),
      paragraph("Edda Vos", "Edda Vos (born 1950) is a cyclist who won the Tour of Hollin twice."),
      paragraph("Carrow", "Carrow is a city on the River Mell.", "Its cathedral was finished in 1460."),
    ],
  },
  {
    id: "qa-builtin-04",
    question: "What is the height of the mountain where the Silverline railway ends?",
    answer: "2,317 metres",
    type: "bridge",
    supportingTitles: ["Silverline railway", "Mount Orrel"],
    paragraphs: [
      paragraph(
        "Silverline railway",
        "The Silverline railway is a rack railway opened in 1896.",
        "It climbs from the village of Brise to its upper terminus on Mount Orrel.",
        "Small steam locomotives push the trains in summer.",
      ),
      paragraph(
        "Mount Orrel",
        "Mount Orrel is a peak in the Hallow Range.",
        "Its summit stands at 2,317 metres and holds a small weather station.",
      ),
      paragraph("Mount Orrin", "Mount Orrin is a grassy hill near Dunmore.", "Its summit stands at 410 metres."),
      paragraph("Silverline (band)", "Silverline is a folk band formed in Carrow in 2004."),
    ],
  },
  {
    id: "qa-builtin-05",
    question: "Which language is spoken by most people on the island where the poet Tomas Brenn was born?",
    answer: "Velkan",
    type: "bridge",
    supportingTitles: ["Tomas Brenn", "Velk"],
    paragraphs: [
      paragraph(
        "Tomas Brenn",
        "Tomas Brenn (1902–1977) was a poet and translator.",
        "He was born on the island of Velk and moved to Carrow as a student.",
        "His best known collection is Salt Letters.",
      ),
      paragraph(
        "Velk",
        "Velk is a small island in the Skarn Sea.",
        "Most of its people speak Velkan, a language related to the dialects of the northern islands.",
        "A ferry sails to Port Averly once a day.",
      ),
      paragraph(
        "Salt Letters",
        "Salt Letters is a 1938 collection of poems by Tomas Brenn.",
        "It was translated into English in 1951.",
      ),
      paragraph("Velka", "The Velka is a river in the Hallow Range.", "Trout fishing on the Velka is popular."),
    ],
  },
  {
    id: "qa-builtin-06",
    question: "Who designed the bridge that carries the Old Post Road over the River Mell?",
    answer: "Rosa Tindale",
    type: "bridge",
    supportingTitles: ["Old Post Road", "Hallam Bridge"],
    paragraphs: [
      paragraph(
        "Old Post Road",
        "The Old Post Road is a historic route between Carrow and Dunmere.",
        "It crosses the River Mell on the Hallam Bridge, a stone arch bridge opened in 1784.",
        "Mail coaches used it until the railway arrived.",
      ),
      paragraph(
        "Hallam Bridge",
        "Hallam Bridge is a five-arch stone bridge over the River Mell.",
        "It was designed by the engineer Rosa Tindale and opened in 1784.",
        "It was widened in 1930.",
      ),
      paragraph("River Mell", "The River Mell rises in the Hallow Range and flows through Carrow.", "It is crossed by eleven bridges."),
      paragraph("Peter Hallam", "Peter Hallam (1931–2009) was a novelist.", "His novels include The Glass Orchard."),
    ],
  },
  {
    id: "qa-builtin-07",
    question: "Which instrument did the founder of the Kettle Lane Quartet play?",
    answer: "viola",
    type: "bridge",
    supportingTitles: ["Kettle Lane Quartet", "Anselm Drey"],
    paragraphs: [
      paragraph(
        "Kettle Lane Quartet",
        "The Kettle Lane Quartet is a string quartet formed in Carrow in 1958.",
        "It was founded by Anselm Drey, who led it for thirty years.",
        "The quartet is known for its recordings of Ilse Marrow's chamber music.",
      ),
      paragraph(
        "Anselm Drey",
        "Anselm Drey (1921–1999) was a musician and teacher.",
        "He played the viola, first in the Carrow Symphony and later in the quartet he founded.",
      ),
      paragraph("Kettle Lane", "Kettle Lane is a street in the old town of Carrow.", "A market for tin goods was held there until 1900."),
      paragraph("Carrow Symphony", "The Carrow Symphony is an orchestra formed in 1905.", "Its first conductor also played the cello."),
    ],
  },
  {
    id: "qa-builtin-08",
    question: "In which city was the company that built the locomotive Bright Tansy based?",
    answer: "Hollin",
    type: "bridge",
    supportingTitles: ["Bright Tansy", "Orme and Pickett Works"],
    paragraphs: [
      paragraph(
        "Bright Tansy",
        "Bright Tansy is a steam locomotive preserved on the Silverline railway.",
        "It was built in 1899 by the Orme and Pickett Works.",
        "It is painted dark green with brass bands.",
      ),
      paragraph(
        "Orme and Pickett Works",
        "The Orme and Pickett Works was an engineering company that made locomotives and pumps.",
        "Its offices and main factory were in the port city of Hollin.",
        "The company closed in 1961.",
      ),
      paragraph("Tansy", "Tansy is a flowering plant with yellow, button-like flowers."),
      paragraph("Pickett Green", "Pickett Green is a village near Brise.", "It has a cricket ground and one inn."),
    ],
  },
  {
    id: "qa-builtin-09",
    question: "What was the birth name of the actress who played Queen Maud in the film The Winter Crown?",
    answer: "Dorothea Pim",
    type: "bridge",
    supportingTitles: ["The Winter Crown", "Cora Valine"],
    paragraphs: [
      paragraph(
        "The Winter Crown",
        "The Winter Crown is a 1954 historical film directed by Lewin Asher.",
        "Queen Maud is played by Cora Valine, and King Edric by Joss Marden.",
        "It was filmed at Dunmere Castle.",
      ),
      paragraph(
        "Cora Valine",
        "Cora Valine (1926–2001) was a stage and film actress.",
        "She was born Dorothea Pim in Hollin and took her stage name at eighteen.",
      ),
      paragraph("Joss Marden", "Joss Marden (1920–1988) was an actor.", "He was born Joseph Marden in Carrow."),
      paragraph(
        "The Winter Crown (play)",
        "The Winter Crown is a 1931 play by Agnes Lyle.",
        "In its first production Queen Maud was played by Hester Grane.",
      ),
    ],
  },
  {
    id: "qa-builtin-10",
    question: "What is the national dish of the country whose capital is Ostwick?",
    answer: "eel pie",
    type: "bridge",
    supportingTitles: ["Ostwick", "Fennmark"],
    paragraphs: [
      paragraph(
        "Ostwick",
        "Ostwick is the capital and largest city of Fennmark.",
        "It lies at the mouth of the River Tey.",
        "The Ostwick Conservatory was founded there in 1850.",
      ),
      paragraph(
        "Fennmark",
        "Fennmark is a small country on the Skarn Sea.",
        "Its national dish is eel pie, usually served with mustard.",
        "Its currency is the mark.",
      ),
      paragraph("Ostwick Conservatory", "The Ostwick Conservatory is a music school founded in 1850.", "Its canteen is known for barley soup."),
      paragraph("River Tey", "The River Tey flows through Fennmark and reaches the sea at Ostwick.", "Smoked fish from the Tey is sold at markets."),
    ],
  },
  {
    id: "qa-builtin-11",
    question: "What is the name of the dog owned by the detective created by the writer Agnes Lyle?",
    answer: "Biscuit",
    type: "bridge",
    supportingTitles: ["Agnes Lyle", "Fenwick Hale"],
    paragraphs: [
      paragraph(
        "Agnes Lyle",
        "Agnes Lyle (1889–1966) was a novelist and playwright.",
        "She created the detective Fenwick Hale, who appears in eighteen novels.",
        "Lyle lived in Brise with her terrier, Pepper.",
      ),
      paragraph(
        "Fenwick Hale",
        "Fenwick Hale is a fictional detective created by Agnes Lyle.",
        "He works from a houseboat on the River Mell with his spaniel, Biscuit.",
        "The first Hale novel was published in 1924.",
      ),
      paragraph("Lyle Street", "Lyle Street is a shopping street in Hollin.", "It was named after a family of rope makers."),
      paragraph("Hale (surname)", "Hale is a surname.", "Notable people with the name include the rower Maud Hale."),
    ],
  },
  {
    id: "qa-builtin-12",
    question: "In what year did the school attended by the chess player Lena Ruusk close?",
    answer: "1987",
    type: "bridge",
    supportingTitles: ["Lena Ruusk", "Marsh Hill School"],
    paragraphs: [
      paragraph(
        "Lena Ruusk",
        "Lena Ruusk (born 1944) is a chess player.",
        "She won the Fennmark championship in 1962, while still a pupil at Marsh Hill School.",
        "She later worked as a mathematics teacher.",
      ),
      paragraph(
        "Marsh Hill School",
        "Marsh Hill School was a grammar school in Ostwick.",
        "It opened in 1880 and closed in 1987, when its pupils moved to a new college.",
      ),
      paragraph("Marsh Hill", "Marsh Hill is a suburb of Hollin.", "Its railway station opened in 1902."),
      paragraph(
        "Fennmark Chess Championship",
        "The Fennmark Chess Championship has been held every year since 1921.",
        "Its youngest winner is Lena Ruusk.",
      ),
    ],
  },
];
