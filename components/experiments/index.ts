/** Experiments: the list, the "New experiment" form and the results page. */
export { ExperimentList, CLI_EXAMPLE } from "./experiment-list";
export { ExperimentResults } from "./experiment-results";
export { NewExperimentForm } from "./new-experiment-form";
export { SiteNav } from "./site-nav";
