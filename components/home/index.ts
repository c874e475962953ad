export { HomePage } from "./home-page";
