export { TourButton } from "./tour";
export { TOUR_SEEN_KEY, TOUR_STOPS, stepsOnPage, type TourStop } from "./tour-steps";
