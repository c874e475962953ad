/** Lesson authoring: the editor over a run's log, its pages (new, edit, preview as a student). */
export { EditLessonPage, LessonPreviewPage, NewLessonPage } from "./lesson-editor-pages";
