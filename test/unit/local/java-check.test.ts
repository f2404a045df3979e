import { assertJavaAvailable, JavaMissingError } from '../../../local/dynamodb-local';

it('says plainly how to install Java when `java` is not on PATH', () => {
  const withoutJava = { ...process.env, PATH: '/nonexistent' };
  expect(() => assertJavaAvailable(withoutJava)).toThrow(JavaMissingError);
  expect(() => assertJavaAvailable(withoutJava)).toThrow(/Java 17.*apt-get install -y openjdk-17-jre-headless/s);
});

it('passes when java is installed', () => {
  expect(() => assertJavaAvailable()).not.toThrow();
});
