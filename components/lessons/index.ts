/** Lessons: the Lessons page, the lesson player with its docked narration and predictions. */
export { LessonList } from "./lesson-list";
export { LessonPage, LessonsPage } from "./lesson-pages";
export { LessonPlayer } from "./lesson-player";
export { LESSON_KEYS } from "./use-lesson-keys";
