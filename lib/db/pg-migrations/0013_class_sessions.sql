CREATE TABLE "class_answers" (
	"class_id" text NOT NULL,
	"student_id" text NOT NULL,
	"step" integer NOT NULL,
	"choice_id" text NOT NULL,
	"answered_at" text NOT NULL,
	CONSTRAINT "class_answers_class_id_student_id_step_pk" PRIMARY KEY("class_id","student_id","step")
);
--> statement-breakpoint
CREATE TABLE "class_forks" (
	"branch_id" text PRIMARY KEY NOT NULL,
	"class_id" text NOT NULL,
	"run_id" text NOT NULL,
	"step" integer NOT NULL,
	"group_id" text NOT NULL,
	"text" text NOT NULL,
	"trial" integer NOT NULL,
	"created_at" text NOT NULL,
	"cleared" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_reflections" (
	"class_id" text NOT NULL,
	"student_id" text NOT NULL,
	"step" integer NOT NULL,
	"text" text NOT NULL,
	"submitted_at" text NOT NULL,
	CONSTRAINT "class_reflections_class_id_student_id_step_pk" PRIMARY KEY("class_id","student_id","step")
);
--> statement-breakpoint
CREATE TABLE "class_students" (
	"id" text PRIMARY KEY NOT NULL,
	"class_id" text NOT NULL,
	"nickname" text NOT NULL,
	"nickname_key" text NOT NULL,
	"token_hash" text NOT NULL,
	"joined_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "classes" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"lesson_id" text NOT NULL,
	"lesson_title" text NOT NULL,
	"run_id" text NOT NULL,
	"teacher_secret_hash" text NOT NULL,
	"status" text NOT NULL,
	"step" integer NOT NULL,
	"revealed_steps" jsonb NOT NULL,
	"max_students" integer NOT NULL,
	"created_by" text,
	"created_at" text NOT NULL,
	"ends_at" text NOT NULL,
	"ended_at" text,
	"version" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "class_answers" ADD CONSTRAINT "class_answers_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_forks" ADD CONSTRAINT "class_forks_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_reflections" ADD CONSTRAINT "class_reflections_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_students" ADD CONSTRAINT "class_students_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_forks_class" ON "class_forks" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "class_forks_run" ON "class_forks" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "class_students_nickname" ON "class_students" USING btree ("class_id","nickname_key");--> statement-breakpoint
CREATE INDEX "class_students_token" ON "class_students" USING btree ("class_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "classes_code" ON "classes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "classes_created" ON "classes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "classes_run" ON "classes" USING btree ("run_id");