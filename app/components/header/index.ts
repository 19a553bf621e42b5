export { Header } from "./header";
