import { assertJavaAvailable, JavaMissingError } from '../../../infra/local/dynamodb-local';

it('says plainly how to install Java when `java` is not on PATH', () => {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    expect(() => assertJavaAvailable()).toThrow(JavaMissingError);
    expect(() => assertJavaAvailable()).toThrow(/Java 17.*apt-get install -y openjdk-17-jre-headless/s);
  } finally {
    process.env.PATH = path;
  }
});

it('passes when java is installed', () => {
  expect(() => assertJavaAvailable()).not.toThrow();
});
